/** English messages of the OAuth consent page (`/oauth/interaction/<uid>`); `en.ts` takes them in. */
export const enOAuth = {
  'oauth.title': 'Allow an MCP client to RSVP for you?',
  'oauth.description': 'An MCP client asks to register you for events in your name.',
  'oauth.asks': '{client} asks to act in your name here.',
  'oauth.unverified': 'The client names itself: nobody has checked that name.',
  'oauth.scopeHeading': 'It may:',
  'oauth.scopeRsvp':
    'register you for events and withdraw your registrations (scope “rsvp”), and read your state for those events (registered, waitlisted and your place). It cannot sign in as you, delete your identity or see your passkeys.',
  'oauth.signedInAs': 'You are signed in as {handle}.',
  'oauth.returnTo': 'Whatever you answer, you go back to {address}.',
  'oauth.allow': 'Allow',
  'oauth.deny': 'Deny',
  'oauth.goneTitle': 'This request is no longer open',
  'oauth.gone':
    'The authorization request has expired, was answered already, or was started in another browser. Start again from your MCP client.',
} as const;
