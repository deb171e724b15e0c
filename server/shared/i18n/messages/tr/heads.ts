import type { Messages } from "../en/index.ts";
import type { Translation } from "../shape.ts";

export const heads = {
  cluster: "Küme",
  alerts: {
    title: "Uyarılar",
    intro: "Alertmanager'ın ilettiği yanma hızı, replika, GPU, bütçe ve MIG uyarıları, başka nerelere gittikleri ve bakım pencereleri.",
    history: "Uyarı geçmişi",
  },
  apiKeys: {
    title: "API anahtarları",
    own: "Uygulamalarınızın ağ geçidini çağırmak için kullandığı anahtarlar.",
    all: "Tüm kiracıların anahtarları, öneklerine göre. Gizli anahtarlar hiçbir zaman saklanmaz.",
  },
  gpu: { title: "GPU {uuid}", intro: "dcgm-exporter'ın bildirdiği haliyle GPU'nun tamamı ve her MIG örneği" },
  replicaGpus: { title: "{name} replikasının GPU'ları", intro: "tensör/boru hattı paralel bir grubun tüm GPU'ları birlikte: kullanım ortalaması ve en yükseği, GPU başına bellek, toplam güç" },
  node: { title: "Düğüm {hostname}", intro: "dcgm-exporter'ın bildirdiği haliyle düğümün tüm GPU'ları" },
  explore: { title: "Metrik keşfi", intro: "Kule'nin Prometheus'una ham PromQL: tüm kiracıların serileri, bu yüzden yalnızca operatörler ve yöneticiler için." },
} satisfies Translation<Messages["heads"]>;
