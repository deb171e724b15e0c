"use client";

import { useTranslations } from "use-intl";
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
  const t = useTranslations("endpoints.slider");
  return (
    <div className={styles.slider}>
      <label htmlFor="canary-slider">
        {t.rich("label", {
          canary: canaryLabel,
          stable: stableLabel,
          canaryWeight: String(canaryWeight),
          stableWeight: String(stableWeight),
          b: (c) => <b>{c}</b>,
          weight: (c) => <output data-testid="canary-weight">{c}</output>,
        })}
      </label>
      <input id="canary-slider" type="range" min={0} max={100} step={1} disabled={locked} value={canaryWeight} onChange={(e) => onChange(Number(e.target.value))} aria-label={t("aria")} />
      <div className="actions">
        {PRESETS.map((p) => (
          <button key={p} type="button" disabled={locked} onClick={() => onChange(p)}>
            {p}%
          </button>
        ))}
        <button className="primary" disabled={locked || !dirty || busy} onClick={onApply}>
          {t("apply")}
        </button>
        {dirty && (
          <button type="button" onClick={onDiscard}>
            {t("discard")}
          </button>
        )}
      </div>
    </div>
  );
}
