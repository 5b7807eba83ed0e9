import { Server } from 'prool/vitest'
import { inject } from 'vitest'

export const { inProcess, cli } = Server.get(inject('chains'))
