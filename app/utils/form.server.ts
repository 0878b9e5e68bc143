import { json } from '@remix-run/node'

/**
 * The request's form fields. A body that is not a form (wrong Content-Type, broken multipart) is the
 * client's mistake: 400 with a message, never a 500.
 */
export async function readFormData(request: Request): Promise<FormData> {
  try {
    return await request.formData()
  } catch {
    throw json({ error: 'Expected a form submission (application/x-www-form-urlencoded or multipart/form-data)' }, { status: 400 })
  }
}
