/**
 * A duration for a person, in her locale: "850 ms", "12.4 s" / "12,4 s", "4 min 05 s", "1 h 02 min". Intl.DurationFormat
 * is not in every runtime we ship (Node 20), so units come from Intl.NumberFormat's unit style, which is.
 */
export function formatDuration(ms: number, locale: string): string {
  if (!Number.isFinite(ms)) return '–';
  const unit = (value: number, name: string, digits = 0) =>
    new Intl.NumberFormat(locale, { style: 'unit', unit: name, unitDisplay: 'short', maximumFractionDigits: digits }).format(value);
  const abs = Math.abs(ms);
  const sign = ms < 0 ? '−' : '';
  if (abs < 1000) return sign + unit(Math.round(abs), 'millisecond');
  if (abs < 60_000) return sign + unit(abs / 1000, 'second', abs < 10_000 ? 1 : 0);
  const totalSeconds = Math.round(abs / 1000);
  if (totalSeconds < 3600) return `${sign}${unit(Math.floor(totalSeconds / 60), 'minute')} ${unit(totalSeconds % 60, 'second')}`;
  const totalMinutes = Math.round(totalSeconds / 60);
  return `${sign}${unit(Math.floor(totalMinutes / 60), 'hour')} ${unit(totalMinutes % 60, 'minute')}`;
}
