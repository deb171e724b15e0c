import bcrypt from "bcryptjs";

// Cost 10 keeps a sign-in near 50 ms on these machines while staying out of brute-force reach.
const COST = 10;

export function hashPassword(plain: string): Promise<string> {
  return bcrypt.hash(plain, COST);
}

export function verifyPassword(plain: string, hash: string): Promise<boolean> {
  return bcrypt.compare(plain, hash);
}
