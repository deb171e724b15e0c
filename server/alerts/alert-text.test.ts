import { describe, expect, it } from "vitest";
import { translatorFor } from "../shared/i18n/translator.ts";
import { alertText } from "./alert-text.ts";
import { stateAlerts } from "./state-alerts.ts";

const say = (locale: "en" | "tr", name: string, labels: Record<string, string>, annotations: Record<string, string>) => {
  const text = alertText(name, labels, annotations);
  return text && translatorFor(locale)(`alerts.summary.${text.key}`, text.values);
};
const none = { budgets: [], failedReplicas: [], failedMig: [] };

describe("Kule's own alerts in the reader's language", () => {
  it("words a state alert from the values it carries, as its English summary says it", () => {
    const [a] = stateAlerts({ ...none, budgets: [{ tenant: "anadolu-bank", name: "Anadolu Bank", spent: 850, budget: 1000, currency: "TRY", hardCap: false }] });
    expect(say("en", a!.labels.alertname!, a!.labels, a!.annotations)).toBe(a!.annotations.summary);
    expect(say("tr", a!.labels.alertname!, a!.labels, a!.annotations)).toBe("Anadolu Bank aylık bütçesinin %85 kadarını harcadı");
    const [r] = stateAlerts({ ...none, failedReplicas: [{ id: "r1", endpoint: "chat", version: "1.1", node: "llm-1", reason: null }] });
    expect(say("en", r!.labels.alertname!, r!.labels, r!.annotations)).toBe(r!.annotations.summary);
    expect(say("tr", r!.labels.alertname!, r!.labels, r!.annotations)).toBe("chat 1.1 replikalarından biri llm-1 üzerinde başarısız oldu");
  });

  it("words the Prometheus rules' alerts from their labels and value, and the SLO burn alerts from their labels", () => {
    expect(say("tr", "KuleKvCacheSaturated", { kule_replica: "chat-v1-0" }, { value: "0.99" })).toBe("chat-v1-0 replikasının KV önbelleği %99 dolu");
    expect(say("en", "KuleKvCacheSaturated", { kule_replica: "chat-v1-0" }, { value: "0.99" })).toBe("KV cache of replica chat-v1-0 at 99%");
    expect(say("tr", "KuleGpuXidError", { gpu: "3", hostname: "gpu-node-1" }, { value: "79" })).toBe("gpu-node-1 düğümündeki GPU 3: XID 79");
    expect(say("tr", "KuleSloBurnFast", { endpoint: "chat", slo: "availability", burn_rate: "14.4" }, {})).toBe("chat: erişilebilirlik hata bütçesi 14,4 kat hızlı tükeniyor");
  });

  it("leaves an alert it does not know, or one stored without its values, to the summary as delivered", () => {
    expect(alertText("SomeoneElsesAlert", { instance: "x" }, { summary: "x is sad" })).toBeNull();
    expect(alertText("KuleGpuXidError", { gpu: "3", hostname: "gpu-node-1" }, {})).toBeNull();
  });
});
