import { useContext } from 'preact/hooks';
import { type Env, EnvContext } from './env.js';

/** The page's environment; components are only ever rendered inside the app, which provides it. */
export function useEnv(): Env {
  const env = useContext(EnvContext);
  if (!env) throw new Error('rendered outside the playground app');
  return env;
}
