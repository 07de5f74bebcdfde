/**
 * The few emoji shortcodes confdesk and its users are likely to write, as Slack shows them. Slack's
 * client knows thousands; a shortcode not in this table stays as typed, which is also what Slack
 * does with an unknown one.
 */
const table: Record<string, string> = {
  warning: '⚠️',
  white_check_mark: '✅',
  heavy_check_mark: '✔️',
  x: '❌',
  hourglass_flowing_sand: '⏳',
  hourglass: '⌛',
  calendar: '📆',
  date: '📅',
  spiral_calendar_pad: '🗓️',
  clock1: '🕐',
  alarm_clock: '⏰',
  bell: '🔔',
  no_bell: '🔕',
  video_camera: '📹',
  movie_camera: '🎥',
  camera: '📷',
  telephone_receiver: '📞',
  link: '🔗',
  lock: '🔒',
  key: '🔑',
  memo: '📝',
  pencil2: '✏️',
  wastebasket: '🗑️',
  bar_chart: '📊',
  chart_with_upwards_trend: '📈',
  information_source: 'ℹ️',
  question: '❓',
  exclamation: '❗',
  tada: '🎉',
  rocket: '🚀',
  wave: '👋',
  eyes: '👀',
  ticket: '🎫',
  thumbsup: '👍',
  '+1': '👍',
  sos: '🆘',
  new: '🆕',
  busts_in_silhouette: '👥',
  bust_in_silhouette: '👤',
  red_circle: '🔴',
  large_green_circle: '🟢',
  large_yellow_circle: '🟡',
  large_blue_circle: '🔵',
  white_circle: '⚪',
  black_circle: '⚫',
  arrows_counterclockwise: '🔄',
  paperclip: '📎',
  inbox_tray: '📥',
  outbox_tray: '📤',
  zap: '⚡',
  no_entry: '⛔',
  no_entry_sign: '🚫',
  stopwatch: '⏱️',
  speech_balloon: '💬',
  robot_face: '🤖',
};

/** `text` with each known `:shortcode:` replaced by its emoji. */
export function emojify(text: string): string {
  return text.replace(/:([a-z0-9_+-]+):/g, (whole, name: string) => table[name] ?? whole);
}

/** The emoji for one shortcode name (rich_text emoji elements carry the name alone), or the `:name:` text. */
export function emojiNamed(name: string): string {
  return table[name] ?? `:${name}:`;
}
