/**
 * Goes through the test provider's sign-in page as a person would, with fetch and a cookie jar: opens the
 * authorization URL, submits `login` on the form, follows the redirects, and returns the URL the provider
 * sends the browser back to (this app's callback, with its code and state), without opening it.
 */
export async function loginAtProvider(
  authorizationUrl: URL,
  login: string,
  callbackPrefix: string,
): Promise<URL> {
  const jar = new Map<string, string>();
  const cookie = () => [...jar].map(([name, value]) => `${name}=${value}`).join('; ');
  const keep = (response: Response) => {
    for (const line of response.headers.getSetCookie()) {
      const [pair = ''] = line.split(';');
      const at = pair.indexOf('=');
      jar.set(pair.slice(0, at), pair.slice(at + 1));
    }
  };
  let url = authorizationUrl;
  for (let hop = 0; hop < 10; hop++) {
    let response = await fetch(url, { redirect: 'manual', headers: { cookie: cookie() } });
    keep(response);
    if (response.status === 200) {
      const page = await response.text();
      const action = /<form[^>]*action="([^"]+)"/.exec(page)?.[1];
      if (!action) throw new Error(`The provider's page at ${url.pathname} has no form`);
      response = await fetch(new URL(action, url), {
        method: 'POST',
        redirect: 'manual',
        headers: { cookie: cookie(), 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ prompt: 'login', login, password: 'any' }),
      });
      keep(response);
    }
    const location = response.headers.get('location');
    if (!location) throw new Error(`The provider answered ${response.status} at ${url.pathname}`);
    url = new URL(location, url);
    if (url.href.startsWith(callbackPrefix)) return url;
  }
  throw new Error('The provider never sent the browser back');
}
