// The error an operator action raises for a mistake in its arguments: `svc admin` prints it as a
// USAGE error with the help, the console shows its message beside the form.
export class UsageError extends Error {}
