import crypto from "node:crypto";
import type { Insertable } from "kysely";
import type { ReceiptTable } from "../../db/schema";

type Row = Insertable<ReceiptTable>;

/**
 * A receipts row for a test to insert directly: a unique image hash and the time now unless given.
 * Every column the test leaves out stays empty (NULL).
 */
export function receiptRow(
  row: Omit<Row, "image_hash" | "created_at"> &
    Partial<Pick<Row, "image_hash" | "created_at">>
): Row {
  return {
    image_hash: crypto.randomBytes(16).toString("hex"),
    created_at: new Date().toISOString(),
    ...row,
  };
}
