"use client";

import { useTranslations } from "use-intl";
import { useFormat } from "@/components/i18n/use-format";

type Split = "endpoint" | "key" | "model" | "class";

/** What each part of the chosen split (endpoint, key, model or request class) was charged over the period. */
export function CostBySplit({ by, rows, money }: { by: Split; rows: { label: string; requests: number; charged: string }[]; money: (v: string) => string }) {
  const t = useTranslations("usage.bySplit");
  const fmt = useFormat();
  if (!rows.length) return null;
  return (
    <div className="panel">
      <h2>{t(`title.${by}`)}</h2>
      {by === "class" && <p className="muted">{t("classHint")}</p>}
      <table data-testid="cost-by-split">
        <thead>
          <tr>
            <th>{t(`column.${by}`)}</th>
            <th>{t("requests")}</th>
            <th>{t("charged")}</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr key={r.label}>
              <td>{r.label}</td>
              <td>{fmt.number(r.requests)}</td>
              <td>{money(r.charged)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
