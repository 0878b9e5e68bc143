// Daily action limit (decision 003): accepted receipts + store submissions per UTC day. Pure.

export const DAILY_ACTION_LIMIT = 3
export const DAILY_LIMIT_TITLE = 'Daily Action Limit Reached'
export const DAILY_LIMIT_MESSAGE =
  "You've reached your limit of 3 actions for today. This includes both receipt scans and store additions. Please come back tomorrow!"

export function dailyActionsLeft(countToday: number): number {
  return Math.max(0, DAILY_ACTION_LIMIT - Math.max(0, countToday))
}

export function isDailyLimitReached(countToday: number): boolean {
  return dailyActionsLeft(countToday) === 0
}
