"use client";

import type { ReactNode } from "react";
import { ToastProvider } from "@/components/ui/toast";
import { TRPCReactProvider } from "@/components/trpc/client";
import { KuleIntlProvider } from "@/components/i18n/intl-provider";
import type { Locale } from "@/server/shared/i18n/locales";

export function Providers({ locale, children }: { locale: Locale; children: ReactNode }) {
  return (
    <KuleIntlProvider locale={locale}>
      <ToastProvider>
        <TRPCReactProvider>{children}</TRPCReactProvider>
      </ToastProvider>
    </KuleIntlProvider>
  );
}
