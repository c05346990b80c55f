/** The answer, wherever a project is named that does not exist or is not the caller's to see. */
export const PROJECT_NOT_FOUND = 'Project not found';

/** A project as the task, comment and attachment rules need it: which one, and how its tasks are named. */
export interface ProjectRef {
  id: string;
  slug: string;
  keyPrefix: string;
}
