"use client";

import type { ReactNode } from "react";
import { IntlProvider } from "use-intl";
import { TIME_ZONE, type Locale } from "@/server/shared/i18n/locales";
import { MESSAGES, missingMessage } from "@/server/shared/i18n/messages";

/** Both languages' messages ship with the app (a few tens of kB): switching needs no round trip. */
export function KuleIntlProvider({ locale, children }: { locale: Locale; children: ReactNode }) {
  return (
    <IntlProvider
      locale={locale}
      messages={MESSAGES[locale]}
      timeZone={TIME_ZONE}
      getMessageFallback={({ namespace, key }) => missingMessage(namespace, key)}
      onError={(e) => {
        // A missing message shows as ⟦key⟧ (the every-page test looks for it); say why in the console too.
        console.error(e.message);
      }}
    >
      {children}
    </IntlProvider>
  );
}
