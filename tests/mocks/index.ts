import { setupServer } from 'msw/node'
import { thorHandlers } from './thor'

/** Every outside HTTP service has its own handler file; unhandled requests fail the test. */
export const server = setupServer(...thorHandlers)
