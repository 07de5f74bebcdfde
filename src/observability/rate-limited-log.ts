/**
 * One kind of line that outsiders can cause at will (requests anyone can send, such as junk at the
 * OAuth redirect), written at most once per `everyMs`: a log cannot be flooded through it, and the
 * next line written says how many were held back since the previous one (`held`).
 */
export function rateLimitedLine(
  write: (fields: Record<string, unknown>, message: string) => void,
  o: { everyMs?: number; now?: () => number } = {},
): (fields: Record<string, unknown>, message: string) => void {
  const everyMs = o.everyMs ?? 60_000;
  const now = o.now ?? Date.now;
  let last = Number.NEGATIVE_INFINITY;
  let held = 0;
  return (fields, message) => {
    const t = now();
    if (t - last < everyMs) {
      held++;
      return;
    }
    last = t;
    write(
      held ? { ...fields, held } : fields,
      held ? `${message} (${held} more like it since the last such line, not written)` : message,
    );
    held = 0;
  };
}
