import { describe, expect, test } from 'vitest'
import { editDistance, electricVehicleEvidence, findVendorByName, matchVendor, preOwnedKeywords } from '~/analysis/vendors'

const lines = (text: string) => text.trim().split('\n').map((l) => l.trim())

describe('matchVendor', () => {
  test.each([
    ['Uber\nThanks for riding, Emma\nTotal $39.26', 'Uber', 'ride_share'],
    ['UBER\nTrip fare $12.00', 'Uber', 'ride_share'],
    ['Ride receipt\nJan 4, 2026\nLyft fare $28.54\nTotal charged $34.07\nLyft, Inc. 185 Berry St', 'Lyft', 'ride_share'],
    ['Waymo One\nTrip on Apr 20, 2026', 'Waymo', 'ride_share'],
    ['MTA New York City Transit\nOMNY Fare Payment', 'MTA', 'public_transit'],
    ['CTA Ventra\nChicago Transit Authority', 'CTA', 'public_transit'],
    ['TriMet\nHop Fastpass', 'TriMet', 'public_transit'],
    ['Citi Bike\nSingle Ride\nLyft Bikes and Scooters, LLC', 'Citi Bike', 'scooter_bike'],
    ['CitiBike\nDay pass', 'Citi Bike', 'scooter_bike'],
    ['Lime\nYour Lime ride receipt', 'Lime', 'scooter_bike'],
    ['Bird\nRide receipt', 'Bird', 'scooter_bike'],
    ['Hertz\nRental Record\nVehicle: Tesla Model 3 (Electric)', 'Hertz', 'electric_vehicle'],
    ['SEPTA\nKey card reload', 'SEPTA', 'public_transit'],
    ['Capital Bikeshare\nSingle trip', 'Capital Bikeshare', 'scooter_bike'],
    // OCR noise: a letter too many, a digit for a letter.
    ['zlipcar\nTrip receipt', 'Zipcar', 'electric_vehicle'],
    ['SHE11\nStore #553', 'Shell', null],
    ['WHOLE FOODS MARKET\n04/03/2026', 'Whole Foods Market', null],
    ['GameStop\nPower to the Players', 'GameStop', null],
  ])('%j -> %s', (text, name, category) => {
    const m = matchVendor(lines(text))
    expect(m?.vendor.name).toBe(name)
    expect(m?.vendor.category).toBe(category)
  })

  test('Uber Eats is food delivery, not a ride', () => {
    expect(matchVendor(['Uber Eats', 'Order total $23.10'])?.vendor.kind).toBe('food')
  })

  test.each([
    ['Paid via Visa ending 1234', 'a word that is also a vendor (Via) deep in the text'],
    ['Chevrolet Bolt EV rental agreement\nTotal $80.00', 'a car model that is also a vendor (Bolt)'],
    ['Thank you\nSpin class 45 min', 'Spin below the header'],
    ['Metro Diner\nPancakes $9.00', "'Metro' must not fuzzy-match 'Metra'"],
  ])('%j is not a transport vendor (%s)', (text) => {
    expect(matchVendor(lines(text))?.vendor.kind === 'transport').toBe(false)
  })

  test('short names need an exact word', () => {
    expect(matchVendor(['Limes and lemons'])).toBeNull()
    expect(matchVendor(['Lyfe insurance'])).toBeNull()
  })

  test('the name at the top outweighs a mention further down', () => {
    const m = matchVendor(lines('Hertz\nRental Record\nVehicle: Tesla Model Y\nTotal $95.17\nTesla charging included'))
    expect(m?.vendor.name).toBe('Hertz')
  })
})

test('editDistance', () => {
  expect(editDistance('zipcar', 'zlipcar')).toBe(1)
  expect(editDistance('shell', 'shell')).toBe(0)
  expect(editDistance('goodwill', 'godwil')).toBe(2)
})

test('findVendorByName', () => {
  expect(findVendorByName('citibike')?.name).toBe('Citi Bike')
  expect(findVendorByName('Unknown Co')).toBeNull()
})

test.each([
  ['Vehicle: Tesla Model 3 (Electric)', true],
  ['Kia Niro EV', true],
  ['Hyundai Kona Electric', true],
  ['Charging 32 kWh', true],
  ['Toyota Camry, full to full fuel', false],
  ['Nissan Altima', false],
])('EV evidence in %j: %s', (text, expected) => {
  expect(electricVehicleEvidence(text).length > 0).toBe(expected)
})

test('pre-owned keywords', () => {
  expect(preOwnedKeywords('PRE-OWNED GAME $35.99')).toEqual(['pre-owned'])
  expect(preOwnedKeywords('Thank you for shopping second-hand')).toEqual(['second-hand'])
  expect(preOwnedKeywords('Trip fare $12.00')).toEqual([])
})

describe('a fuzzy match never bends a real word', () => {
  test("the Spanish 'cargo' (a charge) is not car2go", () => {
    expect(matchVendor(['Esta retención no es un cargo real.'])).toBeNull()
  })
})

describe("India's state bus corporations and city metros (issue 37)", () => {
  test.each([
    ['RAJASTHAN STATE ROAD TRANSPORT CORPORATION', 'RSRTC'],
    ['TNSTC E-Ticket', 'TNSTC'],
    ['Bangalore Metro Rail Corporation Limited', 'Namma Metro'],
    ['DMRC', 'Delhi Metro'],
  ])('%s is %s', (line, name) => {
    expect(matchVendor([line, 'Fare Rs. 48'])?.vendor.name).toBe(name)
  })

  test("only as a letterhead: a shop's address names them too", () => {
    expect(matchVendor(['City Cafe', 'Order 12', 'Paid to DTC account', 'Total 120.00'])?.vendor.name).not.toBe('DTC')
    expect(matchVendor(['SAGAR RATNA', 'Shop 12, Near Delhi Metro Station', 'Masala Dosa 1 x 180.00', 'Grand Total 252.00'])).toBeNull()
    expect(matchVendor(['Udupi Cafe', 'Shop 5, BMTC Complex', 'Idli 2 x 40.00', 'Total 80.00'])).toBeNull()
  })
})

describe('names written in Hangul or Han (issue 37)', () => {
  test('a space where the script changes does not hide a name: "카카오 T 택시" is Kakao T, not the word taxi', () => {
    expect(matchVendor(['카카오 T 택시', '영수증', '합계 금액 12,300원'])?.vendor.name).toBe('Kakao T')
    // A longer name, in the spaces Korean is written (and read) with or without: Korean tesseract's
    // "카카오 택시" for 카카오택시.
    expect(matchVendor(['카카오 택시', '영수증'])?.vendor.name).toBe('Kakao T')
    // Nor does it join two words of one script into a name: "선택 시 할인" (a discount on choosing) is no 택시.
    expect(matchVendor(['선택 시 할인', '합계 12,300원'])).toBeNull()
  })
  test('a Latin letter that ends a name ends it there: KakaoTalk is no Kakao T', () => {
    expect(matchVendor(['카카오Talk 상담', '영수증'])).toBeNull()
    expect(matchVendor(['CT3出行'])).toBeNull()
  })
  test('on a tie, a ride app named over the word taxi; a taxi letterhead over a service named below it', () => {
    expect(matchVendor(['GrabTaxi', 'Taxi Receipt', 'Total SGD 12.30'])?.vendor.name).toBe('Grab')
    expect(matchVendor(['Taxi Receipt', 'GrabTaxi', 'Total SGD 12.30'])?.vendor.name).toBe('Grab')
    expect(matchVendor(['택시 영수증', '카카오T', '합계 12,300원'])?.vendor.name).toBe('Kakao T')
    expect(matchVendor(['TAXI RECEIPT', 'Paid with Uber', 'Total $12.00'])?.vendor.name).toBe('Taxi')
    // A transit name in a cab's name is the cab's street or company: "PARK AVE TAXI" is no Renfe AVE.
    expect(matchVendor(['PARK AVE TAXI', 'New York, NY', 'Total $26.00'])?.vendor.name).toBe('Taxi')
    expect(matchVendor(['SJ TAXI', 'Total $26.00'])?.vendor.name).toBe('Taxi')
  })
})
