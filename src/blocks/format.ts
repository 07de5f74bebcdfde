/*
 * Plain formatters the builders share (durations, file sizes): plain strings, escaped by `md` where
 * they are interpolated like any other value.
 */

/** A duration in minutes for people: `1 h 30 min`, `45 min`, `0 min`. */
export function formatMinutes(minutes: number): string {
  const h = Math.floor(minutes / 60);
  const m = minutes % 60;
  return [h ? `${h} h` : '', m ? `${m} min` : ''].filter(Boolean).join(' ') || '0 min';
}

/** A file size for people: kB, MB or GB. */
export const humanSize = (bytes: number) =>
  bytes >= 1e9
    ? `${(bytes / 1e9).toFixed(1)} GB`
    : bytes >= 1e6
      ? `${(bytes / 1e6).toFixed(1)} MB`
      : `${Math.ceil(bytes / 1e3)} kB`;
