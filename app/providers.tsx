"use client";

import type { ReactNode } from "react";
import { ToastProvider } from "@/components/ui/toast";
import { TRPCReactProvider } from "@/components/trpc/client";

export function Providers({ children }: { children: ReactNode }) {
  return (
    <ToastProvider>
      <TRPCReactProvider>{children}</TRPCReactProvider>
    </ToastProvider>
  );
}
