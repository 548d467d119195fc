/** Where signing in starts, to come back to the page the person is on (the server checks it is one of ours). */
export function signInPath({ pathname, search }: Pick<Location, 'pathname' | 'search'>): string {
  return `/auth/sign-in?return=${encodeURIComponent(pathname + search)}`;
}
