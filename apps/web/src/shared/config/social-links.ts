import type { SvgIconComponent } from '@mui/icons-material';
import GitHubIcon from '@mui/icons-material/GitHub';
import TelegramIcon from '@mui/icons-material/Telegram';
import XIcon from '@mui/icons-material/X';
import EmailIcon from '@mui/icons-material/Email';

export interface SocialLink {
  /** Accessible name of the icon button and visible text where a text link is shown. */
  label: string;
  href: string;
  Icon: SvgIconComponent;
}

/**
 * The project's public channels: header icon buttons and the contact links of the error state.
 * One list, edited here only.
 */
export const SOCIAL_LINKS: readonly SocialLink[] = [
  { label: 'GitHub', href: 'https://github.com/michelscope/michelscope', Icon: GitHubIcon },
  { label: 'X (Twitter)', href: 'https://x.com/michelscope', Icon: XIcon },
  { label: 'Telegram', href: 'https://t.me/michelscope', Icon: TelegramIcon },
  { label: 'Email', href: 'mailto:hello@michelscope.dev', Icon: EmailIcon },
];

/** Where a visitor reports a problem (error state). */
export const ISSUES_URL = 'https://github.com/michelscope/michelscope/issues';
