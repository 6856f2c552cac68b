const UNITS: Array<[Intl.RelativeTimeFormatUnit, number]> = [
  ['year', 365 * 24 * 3600],
  ['month', 30 * 24 * 3600],
  ['day', 24 * 3600],
  ['hour', 3600],
  ['minute', 60],
];

const format = new Intl.RelativeTimeFormat('en', { numeric: 'auto' });

/** "3 minutes ago", with the exact time on hover for the operator who needs it. */
export function RelativeTime({ iso, now }: { iso: string; now: number }) {
  const seconds = Math.round((new Date(iso).getTime() - now) / 1000);
  let text = 'just now';
  for (const [unit, size] of UNITS) {
    if (Math.abs(seconds) >= size) {
      text = format.format(Math.round(seconds / size), unit);
      break;
    }
  }
  return (
    <time dateTime={iso} title={new Date(iso).toUTCString()}>
      {text}
    </time>
  );
}
