/**
 * Demo receipts (spec 1 §2 'Uber Receipt', 'Tesla Rental') exist only when the server runs in test
 * mode (decision 007 §3). Their analyses carry testMode: true, and a submission of one never earns.
 */
export const DEMO_TYPES = ['uber', 'tesla'] as const
export type DemoType = (typeof DEMO_TYPES)[number]

export function demoAnalysis(type: DemoType, today: string) {
  const uber = type === 'uber'
  return {
    isValid: true,
    storeName: uber ? 'Uber' : 'Tesla',
    category: uber ? 'ride_share' : 'electric_vehicle',
    totalAmount: uber ? 24.5 : 89,
    purchaseDate: today,
    confidence: 0.95,
    isAcceptable: false,
    needsManualReview: false,
    testMode: true,
    timeoutFallback: false,
    isThriftStore: false,
    isSustainableStore: true,
    sustainableCategory: uber ? 'ride_share' : 'electric_vehicle',
    purchaseCategory: uber ? 'ride_share' : 'electric_vehicle',
    containsPreOwnedItems: false,
    preOwnedKeywordsFound: [],
    sustainabilityReasons: [],
    estimatedReward: null,
    paymentMethod: { method: 'card', cardLastFour: '4242', isDigital: true },
    reasons: ['Demo receipt: test mode only, it never earns tokens.'],
    /** A demo is never an e-receipt (issue 21). */
    verifiedSender: null,
  }
}
