import type { Metadata } from "next";
import type { ReactNode } from "react";
import "./globals.css";
import { Providers } from "./providers";
import { requestLocale } from "@/server/i18n/request-locale";

export const metadata: Metadata = {
  title: { default: "Kule", template: "%s · Kule" },
  description: "The control plane of your AI inference cluster",
};

export default async function RootLayout({ children }: { children: ReactNode }) {
  const locale = await requestLocale();
  return (
    <html lang={locale}>
      <body>
        <Providers locale={locale}>{children}</Providers>
      </body>
    </html>
  );
}
