import { describe, expect, it } from 'vitest'
import { classifyMessage, type MessageKind } from '~/analysis/trip-kind'

const cases: Array<[string, string | null, string, MessageKind]> = [
  ['an Uber trip', 'Your Friday evening trip with Uber', 'Total $14.20\nUberX 4.21 miles | 17 min\nTrip ID: 1A2B', 'trip'],
  ['a Lyft ride', null, 'Thanks for riding with Lyft!\nPickup 6:42 PM: 1 Main St\nDrop-off 7:01 PM: 9 Elm St\nTotal charged $11.00', 'trip'],
  ['a Revel trip number', null, 'All-electric rideshare\nTotal paid $18.00\nTrip # 7731', 'trip'],
  ['a Bolt route', null, 'Thanks for riding with Bolt\nTotal €9.10\nKalamaja → Old Town', 'trip'],
  ['a Zipcar rental', null, 'Your trip in Tesla Model 3 has ended.\n9:00 AM – 11:00 AM\nTotal $32.00', 'trip'],
  ['a ride that used a pass', null, 'Duration 14 min\nUnlock fee waived with Lime Prime\nTotal $3.10', 'trip'],
  ['a ride ending at a restaurant', null, "Trip ID: 99\nDrop-off: Nando's Restaurant, 4 High St\nTotal $8.00", 'trip'],
  ['an Uber Eats order', 'Your order with Uber Eats', 'Total $23.45\nDelivery Fee $2.49\nOrder ID 42', 'food_order'],
  ['a delivery signed as a ride service', null, 'Thanks for ordering\nDelivered to 4 High St\nTotal $12.00\nTrip ID 5', 'food_order'],
  ['a weekly summary', 'Your weekly summary', '5 trips taken, 38.2 miles\nTotal $84.20', 'trip_summary'],
  ['a monthly statement', null, 'You took 11 rides this month.\nTotal charged $120.00', 'trip_summary'],
  // A driver's or courier's statement, which the services sign too, in the languages read (issue 37).
  ['a driver\'s weekly earnings', 'Your weekly earnings', 'Trips 42\nOnline 31:20 h\n318 km\nTotal $812.40', 'trip_summary'],
  ['a German weekly summary', 'Deine Wochenübersicht', 'Fahrten: 12\n84 km\nGesamt 212,40 €', 'trip_summary'],
  ['a French weekly summary', 'Votre récapitulatif hebdomadaire', 'Courses : 9\n61 km\nTotal 148,20 €', 'trip_summary'],
  ['a Spanish weekly summary', 'Tu resumen semanal', 'Viajes: 7\n40 km\nTotal 96,00 €', 'trip_summary'],
  ['an Italian monthly summary', 'Il tuo riepilogo mensile', 'Corse: 20\n140 km\nTotale 310,00 €', 'trip_summary'],
  ['a Portuguese weekly summary', 'O seu resumo semanal', 'Viagens: 15\n102 km\nTotal 240,10 €', 'trip_summary'],
  ['a cancellation fee', 'Your trip was canceled', 'Cancellation fee $5.00\nTotal $5.00\nTrip ID: 1', 'fee_only'],
  ['a no-show fee', null, 'No-show fee $5.00\nRide ID 8\nTotal $5.00', 'fee_only'],
  ['a parking fine', null, 'Parking violation $25.00\nRide ID 9\nAmount charged $25.00', 'fee_only'],
  ['a pass', 'Your Lime Prime receipt', 'Lime Prime (monthly) $5.99\nTotal $5.99\nReceipt number: 3', 'pass_purchase'],
  ['a membership', null, 'Annual membership $219.00\nTotal $219.00', 'pass_purchase'],
  ['a day pass', null, 'Day pass $19.00\nTotal $19.00', 'pass_purchase'],
  // A trip summary that says it is no payment receipt, in the languages read (issue 37).
  ['a German trip summary', null, 'Danke für deine Fahrt\nGesamt 14,20 €\n4,2 km | 17 min\nDies ist keine Zahlungsbestätigung.', 'not_a_payment'],
  ['a French trip summary', null, 'Merci\nTotal 14,20 €\n4,2 km | 17 min\nCeci n’est pas un reçu de paiement.', 'not_a_payment'],
  ['a Spanish trip summary', null, 'Gracias\nTotal 14,20 €\n4,2 km | 17 min\nEste no es un recibo de pago.', 'not_a_payment'],
  ['an Italian trip summary', null, 'Grazie\nTotale 14,20 €\n4,2 km | 17 min\nQuesta non è una ricevuta di pagamento.', 'not_a_payment'],
  ['a Portuguese trip summary', null, 'Obrigado\nTotal R$ 14,20\n4,2 km | 17 min\nEste não é um recibo de pagamento.', 'not_a_payment'],
  ['a German trip receipt that mentions invoices', null, 'Danke für deine Fahrt\nGesamt 14,20 €\n4,2 km | 17 min\nEine Rechnung erhältst du per E-Mail.', 'trip'],
  ['a German cancellation fee', 'Deine Fahrt wurde storniert', 'Stornogebühr 5,00 €\nHauptbahnhof → Flughafen\nGesamt 5,00 €', 'fee_only'],
  ['a Spanish cancellation fee', null, 'Tarifa de cancelación 3,00 €\nAtocha → Barajas\nTotal 3,00 €', 'fee_only'],
  ['a Portuguese cancellation fee', null, 'Taxa de cancelamento R$ 5,00\nCentro → Aeroporto\nTotal R$ 5,00', 'fee_only'],
  // A food or grocery order in the languages read, signed by a ride service (issue 37).
  ['a Spanish Bolt food order', 'Tu pedido de Bolt', 'Total: 18,50 €\nVie, 26/04/2024\n¡Gracias por tu pedido!\nTu repartidor entregó el pedido\nEntrega 20:05 - 20:31\nGastos de envío 1,99 €\nTotal 18,50 €', 'food_order'],
  ['a German delivery', null, 'Danke für deine Bestellung\nLieferung 20:05 - 20:31\nGesamt 18,50 €', 'food_order'],
  ['a French delivery', null, 'Merci pour votre commande\nLivraison 20:05 - 20:31\nTotal 18,50 €', 'food_order'],
  ['a Portuguese delivery', null, 'Obrigado pelo seu pedido\nEntrega 20:05 - 20:31\nTaxa de entrega 1,99 €\nTotal 18,50 €', 'food_order'],
  ['a pass valid from a start date to an end date', null, 'Start date 13 April 2024, 10:43\nEnd date 13 May 2024, 10:43\nTotal 30.00€', 'not_a_trip'],
  ['a Spanish scooter pass', null, 'Tu pase de 20 min al día\nVálido 06:00 - 23:59\nTarifa 30.00€', 'pass_purchase'],
  ['a promotion with a price', 'Ride more this weekend', 'Get 20% off your next ride\nFrom $5.00', 'not_a_trip'],
]

describe('what a signed e-mail is (issue 29)', () => {
  it.each(cases)('%s', (_name, subject, text, kind) => {
    expect(classifyMessage({ subject, text }).kind).toBe(kind)
  })

  it('names the words that decided', () => {
    expect(classifyMessage({ subject: null, text: 'Cancellation fee $5.00' }).evidence).toMatch(/cancellation fee/i)
  })
})
