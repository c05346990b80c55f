import os from 'node:os';
import path from 'node:path';
import type { Reporter, TestModule, Vitest } from 'vitest/node';
import { processCpu, runningChildrenCpu } from './cpu-seconds.js';

const SAMPLE_MS = 5_000;
const SLOWEST = 12;

const seconds = (ms: number) => (ms / 1000).toFixed(1);

/**
 * Printed after Vitest's own summary, whose Duration line gives the run's totals of
 * import, setup and tests: the machine's load while the suite ran, since a busy machine
 * is slower; the files that held a worker longest, each with its own import, setup
 * and tests; and the CPU the run took, in all and by the files that took most (a run
 * on a machine's few cores is bound by it). With them, a run's figure says where its time went.
 */
export default class RunReport implements Reporter {
  private vitest?: Vitest;
  private readonly loads: number[] = [];
  private timer?: NodeJS.Timeout;

  onInit(vitest: Vitest) {
    this.vitest = vitest;
    this.loads.push(os.loadavg()[0]!);
    this.timer = setInterval(() => this.loads.push(os.loadavg()[0]!), SAMPLE_MS).unref();
  }

  onTestRunEnd(modules: ReadonlyArray<TestModule>) {
    clearInterval(this.timer);
    const log = (line: string) => this.vitest!.logger.log(line);
    this.reportLoad(log);
    this.reportSlowest(log, modules);
    this.reportCpu(log, modules);
  }

  private reportLoad(log: (line: string) => void) {
    const loads = [...this.loads, os.loadavg()[0]!];
    const mean = loads.reduce((sum, load) => sum + load, 0) / loads.length;
    log(
      `   Load average (1 min) during the run: ${Math.min(...loads).toFixed(1)} to ${Math.max(...loads).toFixed(1)}, mean ${mean.toFixed(1)}, on ${os.availableParallelism()} cores`,
    );
  }

  private reportSlowest(log: (line: string) => void, modules: ReadonlyArray<TestModule>) {
    const files = modules
      .map((module) => ({ name: path.relative(process.cwd(), module.moduleId), ...module.diagnostic() }))
      .map((file) => ({ ...file, total: file.setupDuration + file.collectDuration + file.duration }))
      .sort((a, b) => b.total - a.total)
      .slice(0, SLOWEST);
    if (files.length < 2) return;
    log(
      `   Slowest files, seconds (import includes the file's own top level; setup is tests/support/fresh-modules.ts, database.ts and data-dir.ts):`,
    );
    for (const file of files) {
      log(
        `   ${seconds(file.total).padStart(6)}  ${file.name}  (import ${seconds(file.collectDuration)}, setup ${seconds(file.setupDuration)}, tests ${seconds(file.duration)})`,
      );
    }
  }

  private reportCpu(log: (line: string) => void, modules: ReadonlyArray<TestModule>) {
    const files = modules
      .map((module) => ({ name: path.relative(process.cwd(), module.moduleId), cpu: module.meta().cpuSeconds }))
      .filter((file): file is { name: string; cpu: number } => file.cpu !== undefined)
      .sort((a, b) => b.cpu - a.cpu);
    const vitest = processCpu('self');
    if (files.length < 2 || vitest === undefined) return;
    const inFiles = files.reduce((sum, file) => sum + file.cpu, 0);
    // Vitest's children, exited or still running: the workers (each file's share measured in it, by
    // tests/support/cpu-use.ts), the database hosts and the build. The rest is the workers' own start and the build.
    const hosts = runningChildrenCpu('database-host.ts');
    const total = vitest.own + vitest.children + runningChildrenCpu('');
    const rest = Math.max(0, total - inFiles - hosts - vitest.own);
    log(
      `   CPU, seconds: ${total.toFixed(0)}: ${inFiles.toFixed(0)} in the files, with the servers, CLIs and browsers they ` +
        `started, ${hosts.toFixed(0)} in the embedded database hosts, ${vitest.own.toFixed(0)} in Vitest's own process ` +
        `(transforms), ${rest.toFixed(0)} in the rest (the workers' start, the build). The files that took most:`,
    );
    for (const file of files.slice(0, SLOWEST)) log(`   ${file.cpu.toFixed(1).padStart(6)}  ${file.name}`);
  }
}
