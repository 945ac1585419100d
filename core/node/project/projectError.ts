/** A problem with a project folder or one of its files; the message names the file. */
export class ProjectError extends Error {
  override name = 'ProjectError';
}
