import type { components, operations, webhooks } from './generated/openapi.js';
import type { OPERATIONS } from './generated/operations.js';
import type { LastResponse, RequestOptions } from './transport.js';

/** The API's schemas by name: `Schemas['Task']`. */
export type Schemas = components['schemas'];
export type Task = Schemas['Task'];
export type Comment = Schemas['Comment'];
export type Attachment = Schemas['Attachment'];

/** A result as the client resolves it: the parsed body, with the answer it came in as `lastResponse`. */
export type WithResponse<T> = T & { readonly lastResponse: LastResponse };

type Table = typeof OPERATIONS;
type Spec = { id: keyof operations; params: Record<string, string>; response: string; items?: string };
type Operation<S extends Spec> = operations[S['id']];

/** An object type with no members: what an operation without query or body adds to its parameters. */
type Empty = Record<never, never>;
type Defined<T> = [NonNullable<T>] extends [never] ? Empty : NonNullable<T>;
type PathOf<S extends Spec> = { [K in keyof S['params']]: string };
type QueryOf<O> = O extends { parameters: { query?: infer Q } } ? Defined<Q> : Empty;
type BodyOf<O> = O extends { requestBody?: { content: infer C } }
  ? C extends { 'application/json': infer B }
    ? B
    : C extends { 'multipart/form-data': infer B }
      ? B
      : Empty
  : Empty;

/** One object of the path parameters (`project`, `task`), query parameters and body fields, by name. */
export type Params<S extends Spec> = PathOf<S> & QueryOf<Operation<S>> & BodyOf<Operation<S>>;

type Success<O> = O extends { responses: infer R }
  ? R extends { 200: { content: { 'application/json': infer B } } }
    ? B
    : R extends { 201: { content: { 'application/json': infer B } } }
      ? B
      : never
  : never;

type Args<P> = Empty extends P ? [params?: P, options?: RequestOptions] : [params: P, options?: RequestOptions];

/**
 * What a list resolves to: a Promise of its first page, which is also iterated with
 * `for await` over every item of every page, and `pages()` over the pages themselves.
 */
export type PageCall<Page, Item> = Promise<WithResponse<Page>> &
  AsyncIterable<Item> & {
    pages(): AsyncIterable<WithResponse<Page>>;
  };

type Method<S extends Spec> = S extends { response: 'stream' }
  ? (...args: Args<Params<S>>) => Promise<Response>
  : S extends { items: infer K extends string }
    ? (...args: Args<Params<S>>) => PageCall<Success<Operation<S>>, Success<Operation<S>> extends Record<K, (infer Item)[]> ? Item : never>
    : (...args: Args<Params<S>>) => Promise<WithResponse<Success<Operation<S>>>>;

/** Every operation of the API as a method, grouped as the table groups them: `api.tasks.list`. */
export type Resources = {
  [Namespace in keyof Table]: {
    [Name in keyof Table[Namespace]]: Table[Namespace][Name] extends Spec ? Method<Table[Namespace][Name]> : never;
  };
};

/** A webhook delivery's body, by event type: `WebhookEvent['type']` is `'task.created' | …`. */
export type WebhookEvent = {
  [Type in keyof webhooks]: webhooks[Type] extends { post: { requestBody: { content: { 'application/json': infer Body } } } }
    ? Body
    : never;
}[keyof webhooks];
