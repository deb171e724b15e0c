import type { Metadata } from "next";
import type { ReactNode } from "react";
import "./globals.css";
import { Providers } from "./providers";
import { requestLocale, serverTranslator } from "@/server/i18n/request-locale";

export async function generateMetadata(): Promise<Metadata> {
  const t = await serverTranslator();
  return { title: { default: "Kule", template: "%s · Kule" }, description: t("shell.description") };
}

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
