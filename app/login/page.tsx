import { redirect } from "next/navigation";
import { auth } from "@/server/auth/next-auth";
import { LoginForm } from "./login-form";

export const metadata = { title: "Sign in" };

export default async function LoginPage() {
  if ((await auth())?.user) redirect("/");
  return (
    <main className="login">
      <div className="card">
        <h1>Kule</h1>
        <p>Control plane of your inference cluster</p>
        <LoginForm />
      </div>
    </main>
  );
}
