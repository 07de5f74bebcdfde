import type { DoubleContext, Methods } from './context.js';

/**
 * `functions.completeSuccess` / `functions.completeError`: how a Workflow Builder step (a custom
 * function) ends. The double ends the run `startStep` began, once, recording the outputs or the
 * error and the token used (Bolt's `complete`/`fail` use the execution's own token).
 * https://docs.slack.dev/reference/methods/functions.completeSuccess
 */
export function functionsMethods({ double }: DoubleContext): Methods {
  const end =
    (kind: 'completed' | 'failed') =>
    (a: Record<string, unknown>, token: string | undefined): Record<string, unknown> => {
      const run = double.stepRuns.get(String(a.function_execution_id ?? ''));
      if (!run) return { ok: false, error: 'function_execution_not_found' };
      if (run.ended) return { ok: false, error: 'function_execution_already_completed' };
      const at = Date.now();
      run.ended =
        kind === 'completed'
          ? { kind, outputs: (a.outputs ?? {}) as Record<string, unknown>, token, at }
          : { kind, error: String(a.error ?? ''), token, at };
      return { ok: true };
    };
  return {
    'functions.completeSuccess': { changes: true, answer: end('completed') },
    // The error is shown to the workflow's builder: it is checked for tokens the bot did not write.
    'functions.completeError': { changes: true, texts: (a) => a.error, answer: end('failed') },
  };
}
