/** What the client's error helpers add to the server's messages (components/trpc). */
export const trpc = {
  fixFields: "Please correct the fields marked below.",
  somethingWrong: "Something went wrong.",
};
