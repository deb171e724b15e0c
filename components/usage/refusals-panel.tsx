"use client";

import { useTranslations } from "use-intl";
import { useFormat } from "@/components/i18n/use-format";

interface Refusal {
  limit: string;
  label: string;
  calls: number;
  lastAt: Date | string | null;
}

/** Calls the gateway refused for a limit in the period, by which limit: what to raise, or what to slow down. */
export function RefusalsPanel({ refusals, days }: { refusals: Refusal[]; days: number }) {
  const t = useTranslations("usage.refusals");
  const fmt = useFormat();
  return (
    <div className="panel" data-testid="refusals">
      <h2>{t("title")}</h2>
      {refusals.length === 0 ? (
        <p className="muted">{days === 1 ? t("noneDay") : t("none", { days })}</p>
      ) : (
        <table>
          <thead>
            <tr>
              <th>{t("limit")}</th>
              <th>{t("calls")}</th>
              <th>{t("last")}</th>
            </tr>
          </thead>
          <tbody>
            {refusals.map((r) => (
              <tr key={r.limit}>
                <td>{r.label}</td>
                <td>{fmt.number(r.calls)}</td>
                <td>{r.lastAt ? fmt.dateTime(r.lastAt) : "—"}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </div>
  );
}
