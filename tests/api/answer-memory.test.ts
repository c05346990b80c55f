import { beforeAll, describe, expect, it } from 'vitest';
import { listTasksQuery } from '../../server/schemas/task';
import { db } from '../../server/db/client';
import { createMemoryBudget } from '../../server/http/memory-budget';
import { listTasks } from '../../server/tasks/list';
import { useApi } from '../support/api';

const api = useApi();
// The longest description the contract allows, in 4-byte characters: 400 KB of UTF-8 each.
const LONGEST = '😀'.repeat(100_000);

describe('pages of long descriptions', () => {
  beforeAll(async () => {
    for (let i = 1; i <= 3; i++)
      expect((await api.client.post('/web/tasks', { title: `Long ${i}`, description: LONGEST })).status).toBe(201);
  });

  it('reserve the UTF-8 size of their descriptions before the tasks are read', async () => {
    const reserved: number[] = [];
    await listTasks(db(), api.fixture.projects.web, { ...listTasksQuery.parse({}), projectSlug: 'web' }, async (bytes) => {
      reserved.push(bytes);
    });
    expect(reserved).toEqual([3 * 400_000]);
  });

  it('are answered in full, many times and several at once, each giving its memory back', async () => {
    // 30 answers of 1.2 MB hold more than the whole budget: any not given back would stall the rest.
    for (let wave = 0; wave < 5; wave++) {
      const responses = await Promise.all(Array.from({ length: 6 }, () => api.client.get('/web/tasks')));
      for (const response of responses) {
        expect(response.status).toBe(200);
        expect(response.body.tasks.map((task) => task.description === LONGEST)).toEqual([true, true, true]);
      }
    }
  });
});

const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('the memory budget', () => {
  it('grants at once what fits', async () => {
    const budget = createMemoryBudget(100);
    expect(await budget.holding().reserve(60)).toBe(true);
    expect(await budget.holding().reserve(40)).toBe(true);
    expect(budget.held).toBe(100);
  });

  it('makes a reservation that does not fit wait until enough is given back', async () => {
    const budget = createMemoryBudget(100);
    const first = budget.holding();
    await first.reserve(70);
    let granted = false;
    const waiting = budget
      .holding()
      .reserve(50)
      .then(() => (granted = true));
    await settle();
    expect(granted).toBe(false);
    first.release();
    await waiting;
    expect(budget.held).toBe(50);
  });

  it('grants a reservation larger than the whole budget when nothing else is held', async () => {
    const budget = createMemoryBudget(100);
    await budget.holding().reserve(250);
    expect(budget.held).toBe(250);
  });

  it('serves in order: a small reservation that would fit waits behind a large one', async () => {
    const budget = createMemoryBudget(100);
    const first = budget.holding();
    await first.reserve(90);
    let smallGranted = false;
    const large = budget.holding().reserve(80);
    const small = budget
      .holding()
      .reserve(5)
      .then(() => (smallGranted = true));
    await settle();
    expect(smallGranted).toBe(false);
    first.release();
    await Promise.all([large, small]);
    expect(budget.held).toBe(85);
  });

  it('serves the oldest holder first, past capacity, so requests that each hold part cannot all wait on each other', async () => {
    const budget = createMemoryBudget(100);
    const [older, younger] = [budget.holding(), budget.holding()];
    await older.reserve(50);
    await younger.reserve(50);
    let youngerGranted = false;
    void younger.reserve(30).then(() => (youngerGranted = true));
    expect(await older.reserve(30)).toBe(true);
    await settle();
    expect(youngerGranted).toBe(false);
    expect(budget.held).toBe(130);
  });

  it('answers false when the bytes did not fit in time, and the next ones go on', async () => {
    const budget = createMemoryBudget(100);
    const first = budget.holding();
    await first.reserve(100);
    expect(await budget.holding().reserve(10, 10)).toBe(false);
    first.release();
    expect(await budget.holding().reserve(100, 10)).toBe(true);
  });

  it('counts a release once however often it is called, and takes back what is given back', async () => {
    const budget = createMemoryBudget(100);
    const first = budget.holding();
    await first.reserve(30);
    await budget.holding().reserve(20);
    first.giveBack(10);
    expect(budget.held).toBe(40);
    first.release();
    first.release();
    expect(budget.held).toBe(20);
  });
});
