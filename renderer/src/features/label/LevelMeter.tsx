import { METER_FLOOR_DB } from './useRecorder';

/**
 * A microphone level meter from METER_FLOOR_DB to 0 dBFS. `db` null is no reading (the floor, empty); `filled` false
 * keeps the bar empty whatever the reading (the recorder when it is not recording).
 */
export function LevelMeter({ label, db, filled = true }: { label: string; db: number | null; filled?: boolean }) {
  const pct = db === null || !filled ? 0 : Math.round((100 * (db - METER_FLOOR_DB)) / -METER_FLOOR_DB);
  return (
    <div
      className="meter"
      role="meter"
      aria-label={label}
      aria-valuemin={METER_FLOOR_DB}
      aria-valuemax={0}
      aria-valuenow={Math.round(db ?? METER_FLOOR_DB)}
    >
      <div className="meter-fill" style={{ width: `${pct}%` }} />
    </div>
  );
}
