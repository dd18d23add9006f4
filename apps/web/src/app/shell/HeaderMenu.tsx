import { Link as RouterLink } from 'react-router';
import Divider from '@mui/material/Divider';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import { SOCIAL_LINKS } from '../../shared/config/social-links';
import type { NavLink } from './header-links';

interface Props {
  id: string;
  anchor: HTMLElement | null;
  links: NavLink[];
  onClose: () => void;
}

/** The small-screen menu of the header (links and socials); loaded on first use. */
export default function HeaderMenu({ id, anchor, links, onClose }: Props) {
  return (
    <Menu id={id} anchorEl={anchor} open={anchor !== null} onClose={onClose}>
      {links.map((link) => (
        <MenuItem key={link.label} component={RouterLink} to={link.to} onClick={onClose}>
          {link.label}
        </MenuItem>
      ))}
      <Divider />
      {SOCIAL_LINKS.map(({ label, href, Icon }) => (
        <MenuItem
          key={label}
          component="a"
          href={href}
          target="_blank"
          rel="noopener noreferrer"
          onClick={onClose}
        >
          <ListItemIcon>
            <Icon fontSize="small" />
          </ListItemIcon>
          <ListItemText>{label}</ListItemText>
        </MenuItem>
      ))}
    </Menu>
  );
}
