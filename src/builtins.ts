/**
 * Node's built-in modules that only servers, profiling and state files use, required at their
 * first use instead of imported: node:http (with net and its streams), inspector, v8, perf_hooks
 * and zlib together were ~4 ms of every cold start (docs/performance.md, "Cold start").
 * `require` caches each, so a later call costs a lookup.
 */
import { createRequire } from 'node:module'

const load = createRequire(import.meta.url)

export const nodeHttp = (): typeof import('node:http') => load('node:http') as typeof import('node:http')
export const nodeNet = (): typeof import('node:net') => load('node:net') as typeof import('node:net')
export const nodeInspector = (): typeof import('node:inspector') => load('node:inspector') as typeof import('node:inspector')
export const nodeV8 = (): typeof import('node:v8') => load('node:v8') as typeof import('node:v8')
export const nodePerfHooks = (): typeof import('node:perf_hooks') => load('node:perf_hooks') as typeof import('node:perf_hooks')
export const nodeZlib = (): typeof import('node:zlib') => load('node:zlib') as typeof import('node:zlib')
export const nodeAsyncHooks = (): typeof import('node:async_hooks') => load('node:async_hooks') as typeof import('node:async_hooks')
