import { Guarded } from "@/app/(app)/guarded";
import { UsersPage } from "@/components/users/users-page";
import { SsoSettings } from "@/components/users/sso-settings";
import { titled } from "@/server/i18n/page-title";

export const generateMetadata = titled("usersRoles");

export default function Page() {
  return (
    <Guarded page="users">
      <UsersPage />
      <SsoSettings />
    </Guarded>
  );
}
