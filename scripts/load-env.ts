import fs from 'node:fs'

// A local .env is optional; real environment variables win over it.
if (fs.existsSync('.env')) process.loadEnvFile('.env')
