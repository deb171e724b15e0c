/** The frame around every page: brand, navigation, who is signed in, the language switch. */
export const shell = {
  tagline: "inference control plane",
  description: "The control plane of your AI inference cluster",
  mainNav: "Main",
  overview: "Overview",
  signOut: "Sign out",
  language: "Language",
  roles: { admin: "admin", operator: "operator", auditor: "auditor", tenant: "tenant" },
  notAllowed: {
    title: "Not allowed",
    body: "Your role cannot open {what}. If you need it, ask an admin to change your role.",
    back: "Back to the overview",
  },
};
