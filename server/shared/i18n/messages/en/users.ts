/** Users and their roles (components/users); the roles' own names are shell.roles. */
export const users = {
  title: "Users & roles",
  new: "New user",
  intro: "Who can sign in, and what each role may do.",
  loading: "users",
  empty: "No users",
  user: "User",
  role: "Role",
  tenant: "Tenant",
  roleOf: "Role of {email}",
  tenantNeeded: "Create tenant users with “New user”, choosing their tenant.",
  hints: {
    admin: "everything, including users, tenants and prices",
    operator: "models, endpoints, rollouts and the cluster",
    tenant: "its own tenant's keys, usage and cost only",
    auditor: "read-only: call logs and audit events",
  },
  create: {
    title: "New user",
    created: "{email} can now sign in",
    email: "E-mail",
    name: "Name",
    password: "Initial password",
    passwordHint: "At least 10 characters",
    chooseTenant: "Choose a tenant…",
    submit: "Create user",
  },
};
