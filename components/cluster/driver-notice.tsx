import type { inferRouterOutputs } from "@trpc/server";
import type { AppRouter } from "@/server/routers/root";

type DriverView = inferRouterOutputs<AppRouter>["system"]["status"]["cluster"];

/** Which driver runs the cluster, and whether what it drives is simulated. */
export function DriverNotice({ driver }: { driver: Pick<DriverView, "kind" | "standIn" | "url"> }) {
  if (driver.kind === "sim") return <>This cluster is simulated: Kule&apos;s built-in simulator plays its nodes and GPUs and speaks the real exporters&apos; metrics and serving APIs.</>;
  if (driver.standIn)
    return (
      <>
        This cluster runs through the Kubernetes driver, against Kule&apos;s Kubernetes API server stand-in at <code>{driver.url}</code>: a simulated cluster, whose nodes, kubelets and MIG
        manager are the simulator&apos;s.
      </>
    );
  return (
    <>
      This cluster runs through the Kubernetes driver, against the API server at <code>{driver.url}</code>.
    </>
  );
}
