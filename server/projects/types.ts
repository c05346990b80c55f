/** A project as the task, comment and attachment rules need it: which one, and how its tasks are named. */
export interface ProjectRef {
  id: string;
  slug: string;
  keyPrefix: string;
}
