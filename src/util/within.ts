/** Resolves with the promise's outcome if it settles within `ms`, else with undefined (it keeps running). */
export async function within<T>(
  p: Promise<T>,
  ms: number,
): Promise<{ value: T } | { error: unknown } | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => resolve(undefined), ms);
  });
  try {
    return await Promise.race([
      p.then(
        (value) => ({ value }),
        (error: unknown) => ({ error }),
      ),
      timeout,
    ]);
  } finally {
    clearTimeout(timer);
  }
}
