/** The explorer page's entry (bundled by tsup.config.ts's buildExplorerPage into dist/explorer.html). */
import { render } from 'preact'
import { App } from './app.js'
import { start } from './store.js'

render(<App />, document.getElementById('app') as HTMLElement)
void start()
