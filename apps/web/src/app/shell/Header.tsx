import { lazy, Suspense, useId, useState, type MouseEvent } from 'react';
import { Link as RouterLink, useLocation } from 'react-router';
import AppBar from '@mui/material/AppBar';
import Box from '@mui/material/Box';
import ButtonBase from '@mui/material/ButtonBase';
import Container from '@mui/material/Container';
import IconButton from '@mui/material/IconButton';
import Toolbar from '@mui/material/Toolbar';
import Typography from '@mui/material/Typography';
import MenuIcon from '@mui/icons-material/Menu';
import { FavouritesMenu } from '../../features/bookmarks/FavouritesMenu';
import { ThemeSwitch } from '../../features/theme/ThemeSwitch';
import { useStartNetwork } from '../../shared/config/chosen-network';
import { SOCIAL_LINKS } from '../../shared/config/social-links';
import { useAppConfig } from '../../shared/config/useAppConfig';
import { LiveIndicator } from '../../shared/live/LiveIndicator';
import { TEXT_BUTTON } from '../../shared/ui/button-look';
import { SearchBox } from '../../slices/home/SearchBox';
import { headerNavLinks, showsHeaderSearch } from './header-links';

const loadMenu = () => import('./HeaderMenu');
const HeaderMenu = lazy(loadMenu);

/**
 * The brand header: "Michelscope" (home), Search, Networks, Deploy, social links and the theme switch.
 * Below the md breakpoint the links and socials collapse into a menu ("Open menu"). Pages other than home
 * and search carry the search box in the header (from the sm breakpoint up).
 */
export function Header() {
  const config = useAppConfig();
  const links = headerNavLinks(useStartNetwork(config).network);
  const { pathname } = useLocation();
  const withSearch = showsHeaderSearch(pathname);
  const menuId = useId();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const [menuUsed, setMenuUsed] = useState(false);
  const open = anchor !== null;
  const closeMenu = () => setAnchor(null);

  return (
    <AppBar position="sticky" color="default" elevation={0} sx={{ borderBottom: 1, borderColor: 'divider' }}>
      <Container maxWidth="xl">
        {/* narrower gaps on a phone: room for the live indicator's mark and lag */}
        <Toolbar disableGutters sx={{ gap: { xs: 0.5, sm: 1 } }}>
          <Typography
            component={RouterLink}
            to="/"
            variant="h6"
            sx={{
              color: 'inherit',
              textDecoration: 'none',
              fontWeight: 700,
              mr: { xs: 1, sm: 2 },
              letterSpacing: 0.5,
            }}
          >
            Michelscope
          </Typography>

          <Box component="nav" aria-label="Main" sx={{ display: { xs: 'none', md: 'flex' }, gap: 0.5 }}>
            {links.map((link) => (
              <ButtonBase key={link.label} component={RouterLink} to={link.to} focusRipple sx={TEXT_BUTTON}>
                {link.label}
              </ButtonBase>
            ))}
          </Box>

          <Box sx={{ flexGrow: 1, display: 'flex', justifyContent: 'center', minWidth: 0, px: { sm: 2 } }}>
            {withSearch ? (
              <Box
                role="search"
                aria-label="Site"
                sx={{ display: { xs: 'none', sm: 'block' }, width: '100%', maxWidth: 480 }}
              >
                <SearchBox variant="header" />
              </Box>
            ) : null}
          </Box>

          <Box sx={{ display: { xs: 'none', md: 'flex' } }}>
            {SOCIAL_LINKS.map(({ label, href, Icon }) => (
              <IconButton
                key={label}
                component="a"
                href={href}
                target="_blank"
                rel="noopener noreferrer"
                aria-label={label}
                color="inherit"
              >
                <Icon fontSize="small" />
              </IconButton>
            ))}
          </Box>

          <LiveIndicator />
          <FavouritesMenu />
          <ThemeSwitch />

          <IconButton
            color="inherit"
            aria-label="Open menu"
            aria-controls={open ? menuId : undefined}
            aria-haspopup="menu"
            aria-expanded={open}
            onClick={(event: MouseEvent<HTMLElement>) => {
              setMenuUsed(true);
              setAnchor(event.currentTarget);
            }}
            onPointerEnter={() => void loadMenu()}
            onFocus={() => void loadMenu()}
            sx={{ display: { xs: 'inline-flex', md: 'none' } }}
          >
            <MenuIcon />
          </IconButton>
          {menuUsed ? (
            <Suspense fallback={null}>
              <HeaderMenu id={menuId} anchor={anchor} links={links} onClose={closeMenu} />
            </Suspense>
          ) : null}
        </Toolbar>
      </Container>
    </AppBar>
  );
}
