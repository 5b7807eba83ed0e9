/** Hooks of the views: re-render on the store's changes; load once per key. */
import { useEffect, useState } from 'preact/hooks'
import { explain } from './rpc.js'
import { store } from './store.js'

/** Re-renders the calling view whenever the store changes. */
export function useStore(): typeof store {
  const [, tick] = useState(0)
  useEffect(() => {
    const l = () => tick((n) => n + 1)
    store.listeners.add(l)
    return () => void store.listeners.delete(l)
  }, [])
  return store
}

export type Loaded<T> = { state: 'loading' } | { state: 'done'; value: T } | { state: 'failed'; error: string }

/** Runs `load` when `key` changes; the latest answer wins. */
export function useLoad<T>(key: string, load: () => Promise<T>): Loaded<T> {
  const [v, set] = useState<Loaded<T>>({ state: 'loading' })
  useEffect(() => {
    let live = true
    set({ state: 'loading' })
    load().then(
      (value) => live && set({ state: 'done', value }),
      (e: unknown) => live && set({ state: 'failed', error: explain(e) }),
    )
    return () => {
      live = false
    }
  }, [key])
  return v
}
