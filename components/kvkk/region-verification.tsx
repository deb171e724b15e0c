"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useTRPC } from "@/components/trpc/client";
import { useToast } from "@/components/ui/toast";
import { formatDateTime } from "@/components/ui/format";

/** External servers' region labels: the gateway routes to one only once an admin recorded how its location was checked. */
export function RegionVerification({ canWrite }: { canWrite: boolean }) {
  const trpc = useTRPC();
  const qc = useQueryClient();
  const toast = useToast();
  const list = useQuery(trpc.kvkk.regions.list.queryOptions());
  const verify = useMutation(
    trpc.kvkk.regions.verify.mutationOptions({
      onSuccess: () => (toast.success("Region verified: the gateway may route to this server"), void qc.invalidateQueries({ queryKey: trpc.kvkk.regions.list.queryKey() })),
      onError: (e) => toast.error(e.message),
    }),
  );
  if (!list.data?.length) return null;
  return (
    <>
      <h3>External servers&apos; regions</h3>
      <p className="muted">An external server&apos;s region is what its registrant typed. Until verified, the gateway treats it as abroad in an unknown country and sends it no calls.</p>
      <table aria-label="External server regions">
        <thead>
          <tr>
            <th>Server</th>
            <th>Region label</th>
            <th>Verified</th>
            {canWrite && <th />}
          </tr>
        </thead>
        <tbody>
          {list.data.map((r) => (
            <tr key={r.id}>
              <td>
                {r.externalUrl} {r.plainHttpAllowed && <span className="badge badge-danger">plain HTTP allowed</span>}
              </td>
              <td>{r.region}</td>
              <td>{r.regionVerifiedAt ? `${formatDateTime(r.regionVerifiedAt)} by ${r.regionVerifiedByEmail}: ${r.regionEvidence}` : <span className="badge badge-danger">unverified</span>}</td>
              {canWrite && (
                <td>
                  {!r.regionVerifiedAt && (
                    <button
                      onClick={() => {
                        const evidence = prompt(`How did you check that ${r.externalUrl} is in ${r.region}? (contract, data-centre address…)`);
                        if (evidence) verify.mutate({ replicaId: r.id, evidence });
                      }}
                    >
                      Verify
                    </button>
                  )}
                </td>
              )}
            </tr>
          ))}
        </tbody>
      </table>
    </>
  );
}
