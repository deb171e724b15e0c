import { Guarded } from "@/app/(app)/guarded";
import { UsersPage } from "@/components/users/users-page";
import { SsoSettings } from "@/components/users/sso-settings";

export const metadata = { title: "Users & roles" };

export default function Page() {
  return (
    <Guarded page="users">
      <UsersPage />
      <SsoSettings />
    </Guarded>
  );
}
