import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { NearestSites } from '../../../../src/client/features/map/nearest-sites';
import type { SiteIndex } from '../../../../src/client/lib/site-index';

/** Where am I with a fix, its Follow me toggled as the sites map does. */
function WhereAmI() {
  const [following, setFollowing] = useState(false);
  return (
    <NearestSites
      index={{ nearest: async () => [] } as unknown as SiteIndex}
      version={undefined}
      position={{
        watching: true,
        fix: { lat: 38.58, lon: -121.49, accuracy: 8 } as never,
        message: null,
        failure: null,
        start: () => undefined,
      }}
      following={following}
      onFollow={setFollowing}
      onSelect={() => undefined}
    />
  );
}

// Field trial (issue 35): "Follow me" read the same on and off; in sunlight the only sign was
// the button's colour.
describe('Follow me', () => {
  it('says in words that it is on, and is pressed, until tapped off', async () => {
    render(<WhereAmI />);
    const button = screen.getByRole('button', { name: /^Follow me/ });
    expect(button).toHaveTextContent(/^Follow me$/);
    expect(button).toHaveAttribute('aria-pressed', 'false');

    await userEvent.click(button);
    expect(button).toHaveTextContent('Follow me: on');
    expect(button).toHaveAttribute('aria-pressed', 'true');

    await userEvent.click(button);
    expect(button).toHaveTextContent(/^Follow me$/);
    expect(button).toHaveAttribute('aria-pressed', 'false');
  });
});
