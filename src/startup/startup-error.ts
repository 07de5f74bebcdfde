/**
 * A start that cannot go on: `problem` is the one sentence naming the fix. In its own file so that
 * what only throws it (the playground's bundler) does not load the start path.
 */
export class StartupError extends Error {
  readonly code = 'startup_failed';
  constructor(
    readonly problem: string,
    readonly details?: unknown,
  ) {
    super(problem);
    this.name = 'StartupError';
  }
}
