"use client";

import { QueryCache, MutationCache, QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { createTRPCClient, httpBatchLink } from "@trpc/client";
import { createTRPCContext } from "@trpc/tanstack-react-query";
import { TRPCClientError } from "@trpc/client";
import { useState, type ReactNode } from "react";
import superjson from "superjson";
import type { AppRouter } from "@/server/routers/root";
import { useToast } from "@/components/ui/toast";

export const { TRPCProvider, useTRPC } = createTRPCContext<AppRouter>();

function isClientError(e: unknown): boolean {
  const code = e instanceof TRPCClientError ? (e.data as { code?: string } | undefined)?.code : undefined;
  return code === "NOT_FOUND" || code === "FORBIDDEN" || code === "UNAUTHORIZED" || code === "BAD_REQUEST";
}

export function TRPCReactProvider({ children }: { children: ReactNode }) {
  const toast = useToast();
  const [queryClient] = useState(
    () =>
      new QueryClient({
        defaultOptions: {
          // Not-found and forbidden answers will not change on retry.
          queries: { staleTime: 5_000, retry: (n, e) => !isClientError(e) && n < 2 },
        },
        // Errors reach the user once: queries toast here; forms show their own field errors.
        // A query that shows its own error (the PromQL explore box) says so with meta.handlesErrors.
        queryCache: new QueryCache({ onError: (e, query) => !query.meta?.handlesErrors && toast.error(e.message) }),
        mutationCache: new MutationCache({
          onError: (e, _v, _c, mutation) => {
            if (!mutation.meta?.handlesErrors) toast.error(e.message);
          },
        }),
      }),
  );
  const [trpcClient] = useState(() =>
    createTRPCClient<AppRouter>({ links: [httpBatchLink({ url: "/api/trpc", transformer: superjson })] }),
  );
  return (
    <QueryClientProvider client={queryClient}>
      <TRPCProvider trpcClient={trpcClient} queryClient={queryClient}>
        {children}
      </TRPCProvider>
    </QueryClientProvider>
  );
}
