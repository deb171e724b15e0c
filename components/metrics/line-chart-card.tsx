"use client";

import { CartesianGrid, Legend, Line, LineChart, ReferenceLine, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import { useLocale, useTranslations } from "use-intl";
import { exactValue, tickValue } from "./format-value";
import { ChartNumbers } from "./chart-numbers";

const COLORS = ["#1f5fbf", "#e08a00", "#2e9d5b", "#a23fbf", "#c0392b", "#5d6878", "#0f8a8a", "#8a5a0f"];

const time = (t: number) => new Date(t).toISOString().slice(11, 16);

export interface ChartEvent {
  /** ms */
  t: number;
  label: string;
}

/**
 * One chart: draws rows as they come; a null is a gap in the line, never a drop to zero. Events
 * (XID errors) are vertical marks at the time they happened.
 */
export function LineChartCard({
  title,
  unit,
  rows,
  series,
  seriesLabel = (s) => s,
  events = [],
  note,
  height = 180,
}: {
  title: string;
  unit: string;
  rows: Record<string, number | null>[];
  series: string[];
  /** A series' name as shown (legend, hover); the rows keep the server's name as key. */
  seriesLabel?: (s: string) => string;
  events?: ChartEvent[];
  note?: string;
  height?: number;
}) {
  const t = useTranslations("metrics");
  const locale = useLocale();
  const hasData = rows.some((r) => series.some((s) => r[s] !== null && r[s] !== undefined));
  return (
    <div className="panel" role="figure" aria-label={title} data-has-data={hasData ? "yes" : "no"} style={{ marginBottom: 0 }}>
      <h2 style={{ fontSize: 14 }}>
        {title} <span className="muted" style={{ fontWeight: 400 }}>({unit})</span>
      </h2>
      {/* Why the chart is empty or partial, when that is known (e.g. what an exporter cannot report). */}
      {note && hasData && (
        <div className="muted" role="note" style={{ fontSize: 12 }}>
          {note}
        </div>
      )}
      {!hasData ? (
        <div className="empty" style={{ height }}>
          <b>{t("noDataInRange")}</b>
          {note ?? t("dataWillShow")}
        </div>
      ) : (
        <div style={{ height }}>
          {/* A first size to draw at before the container is measured: no blank frame first. */}
          <ResponsiveContainer width="100%" height="100%" initialDimension={{ width: 420, height }}>
            <LineChart data={rows} margin={{ top: 4, right: 8, bottom: 0, left: 0 }}>
              <CartesianGrid stroke="#eef1f5" vertical={false} />
              <XAxis dataKey="t" type="number" domain={["dataMin", "dataMax"]} tickFormatter={time} tick={{ fontSize: 11 }} minTickGap={40} />
              <YAxis tick={{ fontSize: 11 }} width={48} tickFormatter={(v: number) => tickValue(v, locale)} />
              <Tooltip
                content={({ active, label }) => {
                  if (!active) return null;
                  const row = rows.find((r) => r.t === Number(label));
                  return row ? <ChartTooltip t={Number(label)} row={row} series={series} seriesLabel={seriesLabel} unit={unit} /> : null;
                }}
              />
              {series.length > 1 && <Legend wrapperStyle={{ fontSize: 12 }} />}
              {events.map((e, i) => (
                <ReferenceLine key={`${e.t}-${i}`} x={e.t} stroke="#c0392b" strokeDasharray="4 2" label={{ value: e.label, position: "insideTopLeft", fontSize: 11, fill: "#c0392b" }} />
              ))}
              {series.map((s, i) => {
                const colour = COLORS[i % COLORS.length];
                // A sample between two gaps draws no line: mark it, or it would not show at all.
                const lone = (k: number) => rows[k]?.[s] != null && rows[k - 1]?.[s] == null && rows[k + 1]?.[s] == null;
                // Dots cost an element per point: only draw them when some sample stands alone.
                const anyLone = rows.some((_, k) => lone(k));
                return (
                  <Line
                    key={s}
                    type="monotone"
                    dataKey={s}
                    name={seriesLabel(s)}
                    stroke={colour}
                    strokeWidth={1.8}
                    isAnimationActive={false}
                    connectNulls={false}
                    dot={
                      anyLone
                        ? (p: { cx?: number; cy?: number; index?: number }) =>
                            lone(p.index ?? -1) ? <circle key={`d${p.index}`} cx={p.cx} cy={p.cy} r={2.5} fill={colour} /> : <g key={`d${p.index}`} />
                        : false
                    }
                  />
                );
              })}
            </LineChart>
          </ResponsiveContainer>
        </div>
      )}
      {hasData && <ChartNumbers title={title} unit={unit} rows={rows} series={series} seriesLabel={seriesLabel} />}
    </div>
  );
}

/** Every series at the hovered time, exact and with its unit; a gap says "no data" rather than vanishing. */
function ChartTooltip({ t, row, series, seriesLabel, unit }: { t: number; row: Record<string, number | null>; series: string[]; seriesLabel: (s: string) => string; unit: string }) {
  const tm = useTranslations("metrics");
  const locale = useLocale();
  return (
    <div className="panel" style={{ padding: "6px 10px", marginBottom: 0, fontSize: 12, boxShadow: "0 2px 8px rgba(0,0,0,.12)" }}>
      <div className="muted">{new Date(t).toISOString().replace("T", " ").slice(0, 19)} UTC</div>
      {series.map((s, i) => (
        <div key={s}>
          <span style={{ color: COLORS[i % COLORS.length] }}>{seriesLabel(s)}</span>: {exactValue(row[s], unit, locale, tm("noData"))}
        </div>
      ))}
    </div>
  );
}
