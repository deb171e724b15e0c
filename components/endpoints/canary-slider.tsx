"use client";

import { PRESETS } from "./rollout-view";
import styles from "./rollout.module.css";

interface Props {
  canaryLabel: string;
  stableLabel: string;
  canaryWeight: number;
  stableWeight: number;
  locked: boolean;
  dirty: boolean;
  busy: boolean;
  onChange: (canaryWeight: number) => void;
  onApply: () => void;
  onDiscard: () => void;
}

/** The canary slider between two live versions, its presets (5, 20, 50, 100%) and Apply. */
export function CanarySlider({ canaryLabel, stableLabel, canaryWeight, stableWeight, locked, dirty, busy, onChange, onApply, onDiscard }: Props) {
  return (
    <div className={styles.slider}>
      <label htmlFor="canary-slider">
        Canary <b>{canaryLabel}</b>: <output data-testid="canary-weight">{canaryWeight}%</output> · stable <b>{stableLabel}</b>: {stableWeight}%
      </label>
      <input id="canary-slider" type="range" min={0} max={100} step={1} disabled={locked} value={canaryWeight} onChange={(e) => onChange(Number(e.target.value))} aria-label="Canary traffic %" />
      <div className="actions">
        {PRESETS.map((p) => (
          <button key={p} type="button" disabled={locked} onClick={() => onChange(p)}>
            {p}%
          </button>
        ))}
        <button className="primary" disabled={locked || !dirty || busy} onClick={onApply}>
          Apply
        </button>
        {dirty && (
          <button type="button" onClick={onDiscard}>
            Discard
          </button>
        )}
      </div>
    </div>
  );
}
