import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { LookupsNotice } from '../../../src/client/ui/lookups-notice';

const MESSAGE = 'Lists not downloaded yet — connect and tap Refresh.';
const ON_A_FORM = 'Lists not downloaded yet — connect, then tap Refresh on Home.';

describe('LookupsNotice', () => {
  it('explains empty drop-downs when the lists were never stored on this tablet', () => {
    render(
      <LookupsNotice loaded storedAt={null} action={<button type="button">Refresh</button>} />,
    );
    expect(screen.getByRole('status')).toHaveTextContent(MESSAGE);
  });

  it('on a screen without a Refresh button, says where to find one and that typing is kept', () => {
    render(<LookupsNotice loaded storedAt={null} />);
    expect(screen.getByRole('status')).toHaveTextContent(ON_A_FORM);
    expect(screen.getByRole('status')).toHaveTextContent('What you type here is kept.');
  });

  it('stays silent once the lists are stored, and while the cache is still being read', () => {
    const { rerender } = render(<LookupsNotice loaded={false} storedAt={null} />);
    expect(screen.queryByText(MESSAGE)).not.toBeInTheDocument();
    rerender(<LookupsNotice loaded storedAt={Date.now()} />);
    expect(screen.queryByText(MESSAGE)).not.toBeInTheDocument();
  });
});
