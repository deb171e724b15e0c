"use client";

import { CartesianGrid, Legend, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";

const COLORS = ["#1f5fbf", "#e08a00", "#2e9d5b", "#a23fbf", "#c0392b", "#5d6878"];

const time = (t: number) => new Date(t).toISOString().slice(11, 16);
const fmt = (v: number, unit: string) => `${v >= 100 ? v.toFixed(0) : v >= 10 ? v.toFixed(1) : v.toFixed(2)} ${unit}`;

/** One chart: draws rows as they come; a null is a gap in the line, never a drop to zero. */
export function LineChartCard({ title, unit, rows, series }: { title: string; unit: string; rows: Record<string, number | null>[]; series: string[] }) {
  const hasData = rows.some((r) => series.some((s) => r[s] !== null));
  return (
    <div className="panel" role="figure" aria-label={title} style={{ marginBottom: 0 }}>
      <h2 style={{ fontSize: 14 }}>{title}</h2>
      {!hasData ? (
        <div className="empty" style={{ height: 180 }}>
          <b>No data in this range</b>
          Traffic to this endpoint will show here.
        </div>
      ) : (
        <div style={{ height: 180 }}>
          <ResponsiveContainer width="100%" height="100%">
            <LineChart data={rows} margin={{ top: 4, right: 8, bottom: 0, left: 0 }}>
              <CartesianGrid stroke="#eef1f5" vertical={false} />
              <XAxis dataKey="t" type="number" domain={["dataMin", "dataMax"]} tickFormatter={time} tick={{ fontSize: 11 }} minTickGap={40} />
              <YAxis tick={{ fontSize: 11 }} width={48} tickFormatter={(v: number) => fmt(v, "").trim()} />
              <Tooltip labelFormatter={(t) => `${new Date(Number(t)).toISOString().replace("T", " ").slice(0, 19)} UTC`} formatter={(v) => fmt(Number(v), unit)} />
              {series.length > 1 && <Legend wrapperStyle={{ fontSize: 12 }} />}
              {series.map((s, i) => (
                <Line key={s} type="monotone" dataKey={s} stroke={COLORS[i % COLORS.length]} dot={false} strokeWidth={1.8} isAnimationActive={false} connectNulls={false} />
              ))}
            </LineChart>
          </ResponsiveContainer>
        </div>
      )}
    </div>
  );
}
